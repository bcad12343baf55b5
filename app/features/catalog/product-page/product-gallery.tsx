import { useLingui } from "@lingui/react/macro";
import { type KeyboardEvent, useRef, useState } from "react";
import type { Image } from "~/features/content/content";
import { useLocale } from "~/features/i18n/use-locale";

/**
 * The product's images: a large view and a row of thumbnail buttons (Enter/Space or a click shows one; the arrow
 * keys move between thumbnails, in reading order: right to left on a right-to-left page). The large image loads
 * eagerly: it is the first thing on the page.
 */
export function ProductGallery({ images, productName }: { images: readonly Image[]; productName: string }) {
  const { t, i18n } = useLingui();
  const { dir } = useLocale();
  const [forward, back] = dir === "rtl" ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
  const [index, setIndex] = useState(0);
  // Only a picked image fades in: the first one is the page's LCP and must paint at once.
  const [picked, setPicked] = useState(false);
  const show = (at: number) => {
    setIndex(at);
    setPicked(true);
  };
  const thumbs = useRef<Array<HTMLButtonElement | null>>([]);
  const current = images[index] ?? images[0]!;

  function thumbnailLabel(at: number, image: Image) {
    const position = i18n.number(at + 1);
    const count = i18n.number(images.length);
    const description = image.alt;
    return t({
      message: `Show image ${position} of ${count}: ${description}`,
      comment: "A thumbnail button of the product gallery; the text after the colon describes the image",
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, at: number) {
    const last = images.length - 1;
    const next =
      event.key === forward ? (at === last ? 0 : at + 1) : event.key === back ? (at === 0 ? last : at - 1) : undefined;
    if (next === undefined) return;
    event.preventDefault();
    show(next);
    thumbs.current[next]?.focus();
  }

  return (
    <section
      aria-label={t({ message: `${productName} images`, comment: "Names the product's image gallery" })}
      className="space-y-3"
    >
      <div className="overflow-hidden rounded-2xl border border-foreground/10 bg-surface">
        <img
          key={current.src}
          src={current.src}
          alt={current.alt}
          width={current.width}
          height={current.height}
          loading="eager"
          fetchPriority={index === 0 ? "high" : "auto"}
          className={`aspect-[8/5] h-auto w-full object-cover ${picked ? "animate-page-in" : ""}`}
        />
      </div>
      {images.length > 1 ? (
        <ul className="flex gap-3 overflow-x-auto p-1">
          {images.map((image, at) => (
            <li key={image.src} className="shrink-0">
              <button
                ref={(el) => {
                  thumbs.current[at] = el;
                }}
                type="button"
                aria-label={thumbnailLabel(at, image)}
                aria-pressed={at === index}
                onClick={() => show(at)}
                onKeyDown={(e) => onKeyDown(e, at)}
                className={`block overflow-hidden rounded-lg border-2 transition ${at === index ? "border-accent" : "border-transparent opacity-70 hover:opacity-100"}`}
              >
                <img
                  src={image.src}
                  alt=""
                  width={128}
                  height={80}
                  loading="lazy"
                  decoding="async"
                  className="h-20 w-32 object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
