"""Photos in Cloud Storage for Firebase: the project's bucket, each with a download token.

`photoUrl` is the Firebase download URL, which the image route fetches and
sizes like any photo. A photo is only ever deleted from the folders the
studio writes to.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import uuid
from urllib.parse import quote, unquote, urlsplit

import anyio
from google.api_core.exceptions import NotFound
from google.cloud.storage import Bucket, Client

from server.content.models import Collection
from server.studio.photos import HELD_NAME, HELD_SECONDS, CheckedPhoto, from_held, held_name

DOWNLOAD_HOST = "https://firebasestorage.googleapis.com"
CONTENT_TYPES = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}
FOLDER = "studio"
# Photos held between a form and its next Save: no download token, so not public.
HELD_FOLDER = "studio-held"


class StoragePhotos:
    def __init__(self, bucket: Bucket) -> None:
        self._bucket = bucket

    @classmethod
    def connect(cls, project: str, bucket_name: str) -> StoragePhotos:
        return cls(Client(project=project).bucket(bucket_name))

    def download_url(self, path: str, token: str) -> str:
        emulator = os.environ.get("STORAGE_EMULATOR_HOST")
        host = emulator.rstrip("/") if emulator else DOWNLOAD_HOST
        return f"{host}/v0/b/{self._bucket.name}/o/{quote(path, safe='')}?alt=media&token={token}"

    async def store(self, collection: Collection, document_id: str, photo: CheckedPhoto) -> str:
        digest = hashlib.sha256(photo.data).hexdigest()[:12]
        path = f"{FOLDER}/{collection.page_key}/{document_id}-{digest}.{photo.extension}"
        token = str(uuid.uuid4())
        blob = self._bucket.blob(path)
        # The token is what makes the Firebase download URL work without a sign-in.
        blob.metadata = {"firebaseStorageDownloadTokens": token}
        blob.cache_control = "public, max-age=31536000, immutable"
        await anyio.to_thread.run_sync(
            lambda: blob.upload_from_string(photo.data, content_type=CONTENT_TYPES[photo.extension])
        )
        return self.download_url(path, token)

    async def discard(self, collection: Collection, photo_url: str) -> None:
        path = self.path_of(photo_url)
        if path is None or not path.startswith(f"{FOLDER}/{collection.page_key}/"):
            return
        blob = self._bucket.blob(path)
        await anyio.to_thread.run_sync(lambda: blob.delete() if blob.exists() else None)

    async def hold(self, collection: Collection, photo: CheckedPhoto) -> str:
        """Keep a checked photo for the form's next Save; its name. Old held ones go."""
        name = held_name(photo)
        folder = f"{HELD_FOLDER}/{collection.page_key}/"
        stale = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=HELD_SECONDS)

        def write() -> None:
            for old in self._bucket.list_blobs(prefix=folder):
                if old.time_created is not None and old.time_created < stale:
                    old.delete()
            self._bucket.blob(folder + name).upload_from_string(
                photo.data, content_type=CONTENT_TYPES[photo.extension]
            )

        await anyio.to_thread.run_sync(write)
        return name

    async def held(self, collection: Collection, name: str) -> CheckedPhoto | None:
        """The photo held under `name`, or None (gone, or not a held photo's name)."""
        if not HELD_NAME.fullmatch(name):
            return None
        blob = self._bucket.blob(f"{HELD_FOLDER}/{collection.page_key}/{name}")
        try:
            data = await anyio.to_thread.run_sync(blob.download_as_bytes)
        except NotFound:
            return None
        return from_held(name, data)

    async def release(self, collection: Collection, name: str) -> None:
        if not HELD_NAME.fullmatch(name):
            return
        blob = self._bucket.blob(f"{HELD_FOLDER}/{collection.page_key}/{name}")
        await anyio.to_thread.run_sync(lambda: blob.delete() if blob.exists() else None)

    async def close(self) -> None:
        self._bucket.client.close()

    def path_of(self, photo_url: str) -> str | None:
        """The object path of one of this bucket's download URLs; None for any other URL."""
        parts = urlsplit(photo_url)
        prefix = f"/v0/b/{self._bucket.name}/o/"
        if not parts.path.startswith(prefix):
            return None
        return unquote(parts.path.removeprefix(prefix))
