import type { ReactNode } from "react";

/** Every icon is decoration beside a text label, so it only takes the classes that size and colour it. */
export interface IconProps {
  className?: string;
}

// Inline SVG, not a sprite: the icons above the fold paint with the first round trip, and each is a few dozen bytes.

/** A filled 20×20 icon (the shape is `currentColor`). */
function SolidIcon({ className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="currentColor">
      {children}
    </svg>
  );
}

/** A stroked 24×24 icon (the lines are `currentColor`). */
function OutlineIcon({ className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      {children}
    </svg>
  );
}

export function CheckIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
    </SolidIcon>
  );
}

export function XMarkIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
    </SolidIcon>
  );
}

export function ExclamationCircleIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 3a1 1 0 0 0-1 1v4.5a1 1 0 0 0 2 0V6a1 1 0 0 0-1-1Zm0 9.5a1.25 1.25 0 1 0 0-2.5 1.25 1.25 0 0 0 0 2.5Z" />
    </SolidIcon>
  );
}

export function SearchIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M8.5 3a5.5 5.5 0 1 0 3.4 9.8l3.6 3.6a1 1 0 0 0 1.4-1.4l-3.6-3.6A5.5 5.5 0 0 0 8.5 3ZM5 8.5a3.5 3.5 0 1 1 7 0 3.5 3.5 0 0 1-7 0Z" />
    </SolidIcon>
  );
}

export function FilterIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M3 5a1 1 0 0 1 1-1h12a1 1 0 0 1 .8 1.6L12 11.7V16a1 1 0 0 1-1.4.9l-2-1A1 1 0 0 1 8 15v-3.3L3.2 5.6A1 1 0 0 1 3 5Z" />
    </SolidIcon>
  );
}

/** The compact chevron of a disclosure (the catalogue's "more filters"). */
export function ChevronDownIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
    </SolidIcon>
  );
}

/** The rounder, finer chevron of an accordion row (the FAQ). */
export function ChevronDownFineIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
    </SolidIcon>
  );
}

export function DownloadIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.61L6.3 8.24a.75.75 0 1 0-1.1 1.02l4.25 4.5a.75.75 0 0 0 1.1 0l4.25-4.5a.75.75 0 1 0-1.1-1.02l-2.95 3.12V2.75Z" />
      <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
    </SolidIcon>
  );
}

export function StarIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.8l-5.2 2.8 1-5.8L1.5 7.7l5.9-.9L10 1.5Z" />
    </SolidIcon>
  );
}

export function RefreshIcon({ className }: IconProps) {
  return (
    <SolidIcon className={className}>
      <path d="M15.3 4.7A7 7 0 0 0 3.05 9H1.5a.5.5 0 0 0-.35.85l2.5 2.5a.5.5 0 0 0 .7 0l2.5-2.5A.5.5 0 0 0 6.5 9H5.1a5 5 0 0 1 8.79-2.9.99.99 0 0 0 1.41-1.4ZM18.85 10.15l-2.5-2.5a.5.5 0 0 0-.7 0l-2.5 2.5a.5.5 0 0 0 .35.85h1.4a5 5 0 0 1-8.79 2.9 1 1 0 1 0-1.41 1.4A7 7 0 0 0 16.95 11h1.55a.5.5 0 0 0 .35-.85Z" />
    </SolidIcon>
  );
}

/** The Windows logo (16×16), for "works on Windows" chips. */
export function WindowsLogoIcon({ className }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className={className} fill="currentColor">
      <path d="M1 2.5 6.5 1.7v5.6H1V2.5Zm6.3-.9L15 .5v6.8H7.3V1.6ZM1 8.1h5.5v5.6L1 12.9V8.1Zm6.3 0H15v6.9l-7.7-1.1V8.1Z" />
    </svg>
  );
}

/** A filled 24×24 play triangle, for a video's play button. */
export function PlayIcon({ className }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="currentColor">
      <path d="M8 5.1v13.8a1 1 0 0 0 1.5.9l10.8-6.9a1 1 0 0 0 0-1.7L9.5 4.2A1 1 0 0 0 8 5.1Z" />
    </svg>
  );
}

/** Three bars that turn into a cross while the enclosing `group` (a <details> or an aria-expanded button) is open. */
export function MenuToggleIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
    >
      <path className="group-open:hidden group-aria-expanded:hidden" d="M3 5.5h14M3 10h14M3 14.5h14" />
      <path className="hidden group-open:block group-aria-expanded:block" d="M5 5l10 10M15 5L5 15" />
    </svg>
  );
}

export function XMarkOutlineIcon({ className }: IconProps) {
  return (
    <OutlineIcon className={className}>
      <path d="M18 6 6 18M6 6l12 12" />
    </OutlineIcon>
  );
}

export function ChevronDownOutlineIcon({ className }: IconProps) {
  return (
    <OutlineIcon className={className}>
      <path d="m6 9 6 6 6-6" />
    </OutlineIcon>
  );
}

export function SendIcon({ className }: IconProps) {
  return (
    <OutlineIcon className={className}>
      <path d="m22 2-7 20-4-9-9-4Z M22 2 11 13" />
    </OutlineIcon>
  );
}

export function ChatBubbleIcon({ className }: IconProps) {
  return (
    <OutlineIcon className={className}>
      <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
    </OutlineIcon>
  );
}
