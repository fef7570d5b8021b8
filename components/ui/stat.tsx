/** Stat is one figure of a row of totals: a label, a value ("…" while loading), a tone. */
export function Stat({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value?: string;
  tone?: "ok" | "bad";
  testId?: string;
}) {
  return (
    <div className={`stat${tone ? ` ${tone}` : ""}`}>
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {value ?? "…"}
      </div>
    </div>
  );
}
