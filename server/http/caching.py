"""Cache-Control policies, one place for all of them."""

# Hashed file names, and the image route's URLs, change with their content:
# cache them for a year.
IMMUTABLE = "public, max-age=31536000, immutable"

# Pages: browsers revalidate every time (a cheap 304 with the ETag); a CDN may
# keep a page for a minute and serve it stale while it fetches a fresh one, or
# while the site is down.
PAGE = "public, max-age=0, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400"

# Local content images keep their names when edited: a short life, then revalidate.
CONTENT_IMAGE = "public, max-age=300, stale-while-revalidate=3600"

NO_STORE = "no-store"  # error pages and API errors must not be kept

# robots.txt, the sitemap, icons and the manifest: stable names, rare changes.
SITE_FILE = "public, max-age=86400"
