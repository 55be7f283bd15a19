"""The staff studio at /studio: forms to add, edit, delete and order the content, off unless
configured (routes.py). docs/development.md names each module's part."""
