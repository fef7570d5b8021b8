import { Field } from "./field";

/**
 * NameField is a create form's first field, the new thing's name: focused as the form opens
 * (on the operator's click), never filled in by the browser.
 */
export function NameField({
  value,
  error,
  hint,
  onChange,
}: {
  value: string;
  error?: string;
  hint?: string;
  onChange: (name: string) => void;
}) {
  return (
    <Field label="Name" error={error} hint={hint}>
      {(props) => (
        <input
          {...props}
          value={value}
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click
          autoFocus
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * CreateActions are a create form's submit and Cancel buttons: submit is named `label` and says
 * "Creating…" (disabled) while the request runs.
 */
export function CreateActions({
  label,
  pending,
  onCancel,
}: {
  label: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="row field-actions">
      <button type="submit" className="btn primary" disabled={pending}>
        {pending ? "Creating…" : label}
      </button>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
