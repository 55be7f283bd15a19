// The server renders the whole gallery (build.py aliases the client's loader instead).
export { SlideGallery as SlideGalleryLoader } from "../components/SlideGallery";
