/** "Works on" chips such as Windows 10 / Windows 11. */
export function CompatibilityChips({ systems }: { systems: readonly string[] }) {
  if (systems.length === 0) return null;
  return (
    <ul aria-label="Compatibility" className="flex flex-wrap gap-2">
      {systems.map((system) => (
        <li key={system} className="inline-flex items-center gap-1.5 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm text-slate-200">
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5 text-sky-300" fill="currentColor">
            <path d="M1 2.5 6.5 1.7v5.6H1V2.5Zm6.3-.9L15 .5v6.8H7.3V1.6ZM1 8.1h5.5v5.6L1 12.9V8.1Zm6.3 0H15v6.9l-7.7-1.1V8.1Z" />
          </svg>
          {system}
        </li>
      ))}
    </ul>
  );
}
