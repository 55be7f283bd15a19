"""HTTP handlers, thin: each asks the content, rendering or image layer and answers."""
