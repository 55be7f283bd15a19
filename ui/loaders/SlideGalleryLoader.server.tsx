// The server renders the whole gallery, so the slider is in the first HTML.
// The client build swaps this module for SlideGalleryLoader.client.tsx.
export { SlideGallery as SlideGalleryLoader } from "../components/SlideGallery";
