"""Where the studio keeps photos: content/images/ or Cloud Storage for Firebase; and a photo held
for a form that came back with a mistake, not public, until the form's Save."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import anyio
from google.api_core.exceptions import NotFound
from google.cloud.storage import Client

from server.content.local import IMAGES_FOLDER
from server.content.models import Collection
from server.content.photo_policy import LOCAL_IMAGES_PREFIX
from server.studio.fields import FieldError, HeldPhoto, Invalid, PhotoInput
from server.studio.photos import CheckedPhoto, PhotoProblem, check_photo, preview_data_url

# A photo held for a form that came back with a mistake is kept this long;
# a form abandoned with one leaves it to be removed by a later hold.
HELD_SECONDS = 24 * 3600
HELD_NAME = re.compile(r"[0-9a-f]{24}\.(?:jpg|png|webp)")
CONTENT_TYPES = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


class PhotoStore(ABC):
    """Where photos go: `<public>/<collection>/<file>`, linked from the content, and held
    ones (a form's photo kept while the form comes back) in `<unpublished>/`, not public."""

    public: str
    unpublished: str

    async def discard(self, collection: Collection, photo_url: str) -> None:
        """Remove a photo the studio no longer links; only ever one in the collection's folder."""
        path = self._path(photo_url) or ""
        folder = f"{self.public}/{collection.page_key}/"
        name = path.removeprefix(folder)
        if path.startswith(folder) and "/" not in name and name not in ("", ".", ".."):
            await self._remove(path)

    async def hold(self, collection: Collection, photo: CheckedPhoto) -> str:
        """Keep a checked photo for the form's next Save; its name. Old held ones go."""
        name = f"{secrets.token_hex(12)}.{photo.extension}"
        folder = f"{self.unpublished}/{collection.page_key}"
        await self._remove_older(folder, time.time() - HELD_SECONDS)
        await self._write(f"{folder}/{name}", photo, public=False)
        return name

    async def held(self, collection: Collection, name: str) -> CheckedPhoto | None:
        """The photo held under `name` (checked and cleaned when first sent), or None."""
        if not HELD_NAME.fullmatch(name):
            return None
        data = await self._read(f"{self.unpublished}/{collection.page_key}/{name}")
        return None if data is None else CheckedPhoto(data, name.rsplit(".", 1)[1])

    async def release(self, collection: Collection, name: str) -> None:
        if HELD_NAME.fullmatch(name):
            await self._remove(f"{self.unpublished}/{collection.page_key}/{name}")

    @asynccontextmanager
    async def for_the_form(
        self,
        collection: Collection,
        uploads: Mapping[str, PhotoInput],
        errors: dict[str, FieldError],
        limits: Mapping[str, object],
    ) -> AsyncIterator[dict[str, CheckedPhoto]]:
        """The photos sent with the form, checked (a problem goes to `errors`), else those held
        for it, by input name. A form that comes back (Invalid) holds its good photos, so none
        need be chosen again; once saved, they are let go."""
        photos, held = {}, {}
        for name, sent in uploads.items():
            if sent.data or sent.too_big:
                await self.release(collection, sent.held)  # another photo chosen instead
            if sent.too_big:  # never read
                errors[name] = FieldError("photo_too_big", limits)
            elif sent.data:
                try:
                    photos[name] = check_photo(sent.data)
                except PhotoProblem as problem:
                    errors[name] = FieldError(str(problem), limits)
            elif sent.held and (photo := await self.held(collection, sent.held)):
                photos[name] = photo
                held[name] = sent.held
        try:
            yield photos
        except Invalid as refused:
            for input_name, photo in photos.items():
                name = held.get(input_name) or await self.hold(collection, photo)
                refused.kept[input_name] = HeldPhoto(name, preview_data_url(photo))
            raise
        for name in held.values():
            await self.release(collection, name)

    @asynccontextmanager
    async def stored(
        self, collection: Collection, document_id: str, photos: Mapping[str, CheckedPhoto]
    ) -> AsyncIterator[dict[str, str]]:
        """The photos stored for the entry, each under a name of its own (so no other photo is
        replaced), their URLs by input name; removed again when the write does not happen."""
        urls = {}
        for input_name, photo in photos.items():
            name = f"{document_id}-{hashlib.sha256(photo.data).hexdigest()[:12]}.{photo.extension}"
            folder = f"{self.public}/{collection.page_key}"
            urls[input_name] = await self._write(f"{folder}/{name}", photo, public=True)
        try:
            yield urls
        except BaseException:
            for photo_url in urls.values():
                await self.discard(collection, photo_url)
            raise

    async def close(self) -> None:  # noqa: B027 - a local folder has nothing to close
        pass

    # The subclass's paths are relative to its root; _write returns the public photo's URL,
    # _path the path of a URL the store links a photo by (None for any other URL).
    @abstractmethod
    async def _write(self, path: str, photo: CheckedPhoto, *, public: bool) -> str: ...
    @abstractmethod
    async def _read(self, path: str) -> bytes | None: ...
    @abstractmethod
    async def _remove(self, path: str) -> None: ...
    @abstractmethod
    async def _remove_older(self, folder: str, before_time: float) -> None: ...
    @abstractmethod
    def _path(self, photo_url: str) -> str | None: ...


class LocalPhotoFolder(PhotoStore):
    """Photos in content/images/<collection>/, linked as /images/<collection>/<file>."""

    public = IMAGES_FOLDER
    unpublished = ".held"

    def __init__(self, content_dir: Path) -> None:
        self._root = content_dir

    async def _write(self, path: str, photo: CheckedPhoto, *, public: bool) -> str:
        target = self._root / path
        temporary = target.with_name(f".{target.name}.tmp")

        def write() -> None:
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(photo.data)
            temporary.replace(target)

        await anyio.to_thread.run_sync(write)
        return "/" + path

    async def _read(self, path: str) -> bytes | None:
        try:
            return await anyio.Path(self._root / path).read_bytes()
        except FileNotFoundError:
            return None

    async def _remove(self, path: str) -> None:
        await anyio.Path(self._root / path).unlink(missing_ok=True)

    async def _remove_older(self, folder: str, before_time: float) -> None:
        def remove() -> None:
            for old in (self._root / folder).glob("*"):
                if old.stat().st_mtime < before_time:
                    old.unlink(missing_ok=True)

        await anyio.to_thread.run_sync(remove)

    def _path(self, photo_url: str) -> str | None:
        return photo_url.removeprefix("/") if photo_url.startswith(LOCAL_IMAGES_PREFIX) else None


class StoragePhotos(PhotoStore):
    """Photos in Cloud Storage for Firebase; `photoUrl` is a public one's Firebase download URL."""

    public = "studio"
    # No download token: not public.
    unpublished = "studio-held"

    def __init__(self, project: str, bucket_name: str) -> None:
        self._bucket = Client(project=project).bucket(bucket_name)

    async def _write(self, path: str, photo: CheckedPhoto, *, public: bool) -> str:
        blob = self._bucket.blob(path)
        token = str(uuid.uuid4())
        if public:
            # The token is what makes the Firebase download URL work without a sign-in.
            blob.metadata = {"firebaseStorageDownloadTokens": token}
            blob.cache_control = "public, max-age=31536000, immutable"
        await anyio.to_thread.run_sync(
            lambda: blob.upload_from_string(photo.data, content_type=CONTENT_TYPES[photo.extension])
        )
        emulator = os.environ.get("STORAGE_EMULATOR_HOST")
        host = emulator.rstrip("/") if emulator else "https://firebasestorage.googleapis.com"
        return f"{host}/v0/b/{self._bucket.name}/o/{quote(path, safe='')}?alt=media&token={token}"

    async def _read(self, path: str) -> bytes | None:
        try:
            return await anyio.to_thread.run_sync(self._bucket.blob(path).download_as_bytes)
        except NotFound:
            return None

    async def _remove(self, path: str) -> None:
        with contextlib.suppress(NotFound):
            await anyio.to_thread.run_sync(self._bucket.blob(path).delete)

    async def _remove_older(self, folder: str, before_time: float) -> None:
        def remove() -> None:
            for old in self._bucket.list_blobs(prefix=folder + "/"):
                if old.time_created is not None and old.time_created.timestamp() < before_time:
                    old.delete()

        await anyio.to_thread.run_sync(remove)

    async def close(self) -> None:
        self._bucket.client.close()

    def _path(self, photo_url: str) -> str | None:
        parts = urlsplit(photo_url)
        prefix = f"/v0/b/{self._bucket.name}/o/"
        return unquote(parts.path.removeprefix(prefix)) if parts.path.startswith(prefix) else None
