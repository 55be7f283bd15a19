"""Enquiries from visitors: the form's fields, the checks, the store, the mail."""
