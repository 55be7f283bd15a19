"""Photos in Cloud Storage for Firebase: the project's bucket, each with a download token.

`photoUrl` is the Firebase download URL, which the image route fetches and
sizes like any photo.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from urllib.parse import quote, unquote, urlsplit

import anyio
from google.api_core.exceptions import NotFound
from google.cloud.storage import Bucket, Client

from server.studio.photos import CheckedPhoto, PhotoStore

DOWNLOAD_HOST = "https://firebasestorage.googleapis.com"
CONTENT_TYPES = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


class StoragePhotos(PhotoStore):
    public = "studio"
    # No download token: not public.
    unpublished = "studio-held"

    def __init__(self, bucket: Bucket) -> None:
        self._bucket = bucket

    @classmethod
    def connect(cls, project: str, bucket_name: str) -> StoragePhotos:
        return cls(Client(project=project).bucket(bucket_name))

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
        host = emulator.rstrip("/") if emulator else DOWNLOAD_HOST
        return f"{host}/v0/b/{self._bucket.name}/o/{quote(path, safe='')}?alt=media&token={token}"

    async def _read(self, path: str) -> bytes | None:
        try:
            return await anyio.to_thread.run_sync(self._bucket.blob(path).download_as_bytes)
        except NotFound:
            return None

    async def _remove(self, path: str) -> None:
        with contextlib.suppress(NotFound):
            await anyio.to_thread.run_sync(self._bucket.blob(path).delete)

    async def _remove_older(self, folder: str, before: float) -> None:
        def remove() -> None:
            for old in self._bucket.list_blobs(prefix=folder + "/"):
                if old.time_created is not None and old.time_created.timestamp() < before:
                    old.delete()

        await anyio.to_thread.run_sync(remove)

    async def close(self) -> None:
        self._bucket.client.close()

    def _path(self, photo_url: str) -> str | None:
        parts = urlsplit(photo_url)
        prefix = f"/v0/b/{self._bucket.name}/o/"
        return unquote(parts.path.removeprefix(prefix)) if parts.path.startswith(prefix) else None
