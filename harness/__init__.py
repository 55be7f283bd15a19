"""What tests, the benchmark and the scripts start: a live server, the Firestore
emulator and its fault-injecting stand-in, Chromium, content folders."""
