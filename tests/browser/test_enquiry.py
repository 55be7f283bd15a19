"""An enquiry from a phone: from a stone's French page to the branch's mailbox (a real SMTP
server in this process) and the studio's Enquiries, and the form with JavaScript off: problems,
then sent."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.live_server import LiveServer
from harness.mail_server import MailServer
from tests.browser.support import Console, violations, visit

PHONE = (390, 844)


@pytest.fixture(scope="module")
def mail() -> Iterator[MailServer]:
    with MailServer() as server:
        yield server


@pytest.fixture(scope="module")
def enquiry_site(
    tmp_path_factory: pytest.TempPathFactory, mail: MailServer
) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("enquiry-site")
    env = {
        "SMTP_URL": mail.url,
        "ENQUIRY_DATABASE": str(folder / "enquiries.sqlite3"),
        # A test fills the form faster than a person could.
        "ENQUIRY_MIN_SECONDS": "0",
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
        # The local studio, for its Enquiries tab.
        "DEV_MODE": "on",
    }
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"], indirect=True)
def test_from_a_french_stone_page_an_enquiry_reaches_the_french_branch_within_10_s(
    page: Page, enquiry_site: LiveServer, mail: MailServer, console: Console
) -> None:
    visit(page, enquiry_site.url + "/fr/stones/aqaba-red")
    page.get_by_role("link", name="Se renseigner sur cette pierre").click()
    expect(page).to_have_url(re.compile(r"/fr/enquiry\?stone=aqaba-red$"))
    page.locator("html[data-hydrated]").wait_for(state="attached")
    expect(page.get_by_role("heading", level=1)).to_have_text("Une question sur une pierre")
    expect(page.get_by_label("Pierre")).to_have_value("aqaba-red")
    expect(page.get_by_label("Pays *")).to_have_value("FR")
    # Sent empty first: the problems, each beside its field, and the stone still chosen.
    page.get_by_role("button", name="Envoyer").click()
    expect(page.locator("#enquiry-name-error")).to_have_text("Obligatoire.")
    page.locator("html[data-hydrated]").wait_for(state="attached")
    expect(page.get_by_role("alert")).to_be_focused()
    expect(page.get_by_label("Pierre")).to_have_value("aqaba-red")
    assert violations(page) == []
    page.get_by_label("Votre nom *").fill("Marie Dupont")
    page.get_by_label("E-mail").fill("marie@example.fr")
    page.get_by_label("Votre message *").fill("Bonjour, 120 m² en finition flammée ?")
    page.get_by_role("button", name="Envoyer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Merci, votre demande est envoyée")
    expect(page.get_by_text("Elle a été transmise à notre agence en France")).to_be_visible()
    assert violations(page) == []
    (received,) = mail.wait_for(1, timeout=10)
    assert received.recipients == ["france@example.com"]
    assert "Aqaba Red" in str(received.message["Subject"])
    assert received.message["Reply-To"] == "Marie Dupont <marie@example.fr>"
    assert "Bonjour, 120 m² en finition flammée ?" in received.message.get_content()
    # The page is not too wide for the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]

    # It shows in the studio's Enquiries, unread, and opens with the links that answer it.
    page.goto(enquiry_site.url + "/studio")
    page.get_by_role("button", name="Sign in as local staff").click()
    page.get_by_role("link", name="Enquiries").click()
    row = page.get_by_role("link", name=re.compile(r"^Marie Dupont\s+Unread"))
    expect(row).to_contain_text("Aqaba Red · France")
    assert violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    row.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Enquiry from Marie Dupont")
    subject = "Votre%20demande%20concernant%20Aqaba%20Red"
    reply = page.get_by_role("link", name="Reply by email")
    expect(reply).to_have_attribute("href", f"mailto:marie@example.fr?subject={subject}")
    assert violations(page) == []
    # Nothing said on the console but the browser's own line for the form sent back with its
    # problems (status 422).
    assert [p for p in console.problems if "status of 422" not in p] == []


def test_without_javascript_problems_come_back_beside_their_fields_then_it_is_sent(
    browser: Browser, enquiry_site: LiveServer, mail: MailServer
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(enquiry_site.url + "/ar/enquiry")
        page.get_by_role("button", name="إرسال").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("لم يُرسَل استفسارك بعد")
        name = page.get_by_label("الاسم *")
        expect(name).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#enquiry-name-error")).to_have_text("مطلوب.")
        # The list at the top leads to each field.
        alert.get_by_role("link", name=re.compile("^الاسم")).click()
        expect(page).to_have_url(re.compile("#enquiry-name$"))
        name.fill("رانيا حداد")
        page.get_by_label("الهاتف").fill("+962 79 123 4567")
        page.get_by_label("رسالتك *").fill("نحتاج عينات من الحجر المقدسي الذهبي.")
        page.get_by_role("button", name="إرسال").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("شكرًا لك، تم إرسال استفسارك")
        before = len(mail.received)
        assert any("رانيا حداد" in r.message.get_content() for r in mail.wait_for(1, timeout=10))
        # Reloading the thank-you page sends nothing again.
        page.reload()
        expect(page.get_by_role("heading", level=1)).to_have_text("شكرًا لك، تم إرسال استفسارك")
        assert len(mail.received) == max(before, 1)
    finally:
        context.close()
