/** A problem said where it happened, announced at once (nothing when there is none). */
export function ErrorText({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}
