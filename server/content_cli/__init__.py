"""`stone-content`: check the local content files and copy them to and from Firestore."""
