import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { PlayIcon } from "~/components/icons";
import type { Site } from "~/features/layout/site.content";

export function youtubeEmbedUrl(videoId: string): string {
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1`;
}

/**
 * A poster with a play button; the YouTube player (and its requests to a third party) loads only after a click.
 */
export function VideoFacade({ video }: { video: Site["video"] }) {
  const [playing, setPlaying] = useState(false);
  const { t } = useLingui();
  const { poster, title } = video;
  return (
    <div className="relative aspect-video overflow-hidden rounded-2xl border border-foreground/10 bg-surface shadow-2xl shadow-shadow/40">
      {playing ? (
        <iframe
          src={youtubeEmbedUrl(video.id)}
          title={video.title}
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="absolute inset-0 size-full border-0"
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          className="group absolute inset-0 size-full cursor-pointer"
          aria-label={t`Play video: ${title}`}
        >
          <img
            src={poster.src}
            alt=""
            width={poster.width}
            height={poster.height}
            fetchPriority="high"
            className="size-full object-cover"
          />
          <span
            aria-hidden="true"
            className="absolute inset-0 flex items-center justify-center bg-background/20 transition group-hover:bg-background/5"
          >
            <span className="flex size-16 items-center justify-center rounded-full bg-accent text-on-accent shadow-lg shadow-accent/40 transition group-hover:scale-110 sm:size-20">
              {/* Physical, not logical: a play triangle points right in every language, and this centres it by eye. */}
              <PlayIcon className="ml-1 size-8 sm:size-10" />
            </span>
          </span>
        </button>
      )}
    </div>
  );
}
