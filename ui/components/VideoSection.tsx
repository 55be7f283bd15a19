import { useEffect, useRef, useState } from "react";
import { usePageData } from "../hooks/usePageData";
import { useLocale } from "../hooks/useLocale";

// How far from the viewport the player starts loading.
const NEAR_PX = 600;

export function VideoSection() {
  const { videoId, videoTitle: title } = usePageData().company;
  const { messages } = useLocale();
  const frame = useRef<HTMLDivElement>(null);
  // The player (another origin's document and scripts) comes once the page has loaded
  // and the frame is near the viewport: it never holds the first paint or the hero.
  const [playerWanted, setPlayerWanted] = useState(false);
  useEffect(() => {
    const element = frame.current!;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          setPlayerWanted(true);
        }
      },
      { rootMargin: `${NEAR_PX}px 0px` },
    );
    const observe = (): void => observer.observe(element);
    // After a client-side navigation the document has long finished loading.
    if (document.readyState === "complete") observe();
    else window.addEventListener("load", observe, { once: true });
    return () => {
      window.removeEventListener("load", observe);
      observer.disconnect();
    };
  }, []);

  // YouTube's privacy-enhanced mode; browsers autoplay muted video only.
  const params = new URLSearchParams({
    autoplay: "1",
    mute: "1",
    playsinline: "1",
    loop: "1",
    playlist: videoId,
    rel: "0",
  });
  const id = encodeURIComponent(videoId);
  return (
    <section className="video-section" aria-label={messages.video.label}>
      <div className="video-section__frame" ref={frame}>
        {playerWanted ? (
          <iframe
            src={`https://www.youtube-nocookie.com/embed/${id}?${params}`}
            title={title}
            loading="lazy"
            allow="autoplay; encrypted-media; picture-in-picture"
            referrerPolicy="strict-origin-when-cross-origin"
            allowFullScreen
          />
        ) : (
          // Until then, and without JavaScript, a link to the video.
          <a className="video-section__link" href={`https://www.youtube.com/watch?v=${id}`}>
            {title}
          </a>
        )}
      </div>
    </section>
  );
}
