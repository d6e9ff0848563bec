export function Logo({ className = "" }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-serif text-xl tracking-wide text-ink ${className}`}>
      <svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32" className="shrink-0">
        <circle cx="16" cy="16" r="15" fill="#fbe4e8" stroke="#a93f57" strokeWidth="1.5" />
        <path
          d="M10 19c2 3 10 3 12 0M11.5 13.5h.01M20.5 13.5h.01"
          stroke="#a93f57"
          strokeWidth="2"
          strokeLinecap="round"
          fill="none"
        />
      </svg>
      Maison Éclat
    </span>
  );
}
