// The studio form's photo limit, checked the moment a photo is chosen, so a phone
// does not send megabytes only to hear they are too many. The server checks again;
// without this script the form still works and says the same after Save.
for (const input of document.querySelectorAll<HTMLInputElement>("input[type=file][data-max-bytes]")) {
  const maxBytes = Number(input.dataset.maxBytes);
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    input.setCustomValidity(file && file.size > maxBytes ? (input.dataset.tooBig ?? "") : "");
    input.reportValidity();
  });
}
