"""The studio at /studio: staff add, edit and delete projects, collabrations and slider photos.

Its own room, apart from the public render path: sessions and sign-in
(`sessions.py` on loopback, `firebase_sign_in.py` with Firebase), the content
writes (`local_content.py`, `firestore_content.py`), photo checks and storage
(`photos.py`, `storage_photos.py`), what the handlers need of each
(`backends.py`), form validation (`forms.py`), the audit log (`audit.py`), its
messages in both languages (`messages.py`), its headers and the loopback check
(`security.py`) and the HTTP handlers (`handlers.py`, `routes.py`). It is off
unless configured: see `open_studio()` in routes.py.
"""
