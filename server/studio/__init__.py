"""The studio at /studio: staff add, edit and delete projects, collabrations and slider photos.

Its own room, apart from the public render path, in three parts: the
changes, with no HTTP in them (`service.py`, over the content writes of
`local_content.py` or `firestore_content.py` and the photos of `photos.py` or
`storage_photos.py`, as `backends.py` states them, checked by `forms.py`,
logged by `audit.py`); the sign-in (`sessions.py` on loopback,
`firebase_sign_in.py` with Firebase, `google_sign_in.py`); and the pages
(`pages.py`, `templates/`, `messages.py`, `security.py`). `routes.py` names the
routes and opens the studio with the app: it is off unless configured.
"""
