"""The studio at /studio: staff add, edit and delete projects, collabrations and slider photos.

Its own room, apart from the public render path: sessions and sign-in
(`sessions.py`, `sign_in.py`), the content writes (`local_content.py`), photo
checks and storage (`photos.py`), form validation (`forms.py`), the audit log
(`audit.py`), its messages in both languages (`messages.py`) and the HTTP
handlers (`handlers.py`, `routes.py`). It is off unless configured: see
`enabled()` in routes.py.
"""
