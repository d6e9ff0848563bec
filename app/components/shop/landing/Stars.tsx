/** Five decorative stars; the rating itself is always written out in text next to them. */
export function Stars({ className = "h-4 w-4" }: { className?: string }) {
  return (
    <span aria-hidden="true" className="inline-flex text-rose-600">
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} viewBox="0 0 20 20" className={className} fill="currentColor">
          <path d="M10 1.8l2.5 5.2 5.7.8-4.1 4 1 5.7L10 14.8l-5.1 2.7 1-5.7-4.1-4 5.7-.8Z" />
        </svg>
      ))}
    </span>
  );
}
