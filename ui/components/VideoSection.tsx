import { useRef } from "react";
import { useLoadedAndNear } from "../hooks/useLoadedAndNear";
import { useLocale } from "../i18n/locale";

interface VideoSectionProps {
  videoId: string;
  title: string;
}

// youtube-nocookie.com is YouTube's privacy-enhanced mode. Browsers only
// autoplay muted video, so mute=1 is what makes autoplay=1 work.
export function videoEmbedUrl(videoId: string): string {
  const params = new URLSearchParams({
    autoplay: "1",
    mute: "1",
    playsinline: "1",
    loop: "1",
    playlist: videoId,
    rel: "0",
  });
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?${params}`;
}

/** The video's own page: what the server's HTML links until the player comes. */
export function videoPageUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
}

// How far from the viewport the player starts loading.
const NEAR_PX = 600;

export function VideoSection({ videoId, title }: VideoSectionProps) {
  const { messages } = useLocale();
  const frame = useRef<HTMLDivElement>(null);
  // The player (a document from another origin, a new connection, its own
  // scripts) comes after the page's load event: it never holds the first
  // paint or the hero. The frame keeps its place meanwhile.
  const playerWanted = useLoadedAndNear(frame, NEAR_PX);
  return (
    <section className="video-section" aria-label={messages.video.label}>
      <div className="video-section__frame" ref={frame}>
        {playerWanted ? (
          <iframe
            src={videoEmbedUrl(videoId)}
            title={title}
            loading="lazy"
            allow="autoplay; encrypted-media; picture-in-picture"
            referrerPolicy="strict-origin-when-cross-origin"
            allowFullScreen
          />
        ) : (
          // Until then (and for readers without JavaScript) the video is named
          // and linked, in the frame's place.
          <a className="video-section__link" href={videoPageUrl(videoId)}>
            {title}
          </a>
        )}
      </div>
    </section>
  );
}
