import type { Json, JsonSchema } from '../../../src/shared/wire.ts';

/** How a property of an object schema is edited. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

/** The editor for a property schema: plain inputs for scalars, JSON text for the rest. */
export function fieldKind(schema: JsonSchema): FieldKind {
  if (schema.enum) return 'enum';
  switch (schema.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return schema.type;
    default:
      return 'json';
  }
}

/** True for an object schema the form can draw field by field. */
export function isFormSchema(schema: JsonSchema): boolean {
  return (
    schema.type === 'object' && schema.properties !== undefined && Object.keys(schema.properties).length > 0
  );
}

/** The starting value of a form: each property's default. */
export function initialValues(schema: JsonSchema): Record<string, Json> {
  const values: Record<string, Json> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (property.default !== undefined) values[key] = property.default;
    else if (fieldKind(property) === 'boolean' && schema.required?.includes(key)) values[key] = false;
  }
  return values;
}

/** What one field receives. `raw` is the text being typed for number and JSON fields. */
export interface FieldProps {
  readonly id: string;
  readonly name: string;
  readonly schema: JsonSchema;
  readonly value: Json | undefined;
  readonly raw: string | undefined;
  readonly onChange: (value: Json | undefined, raw?: string) => void;
}

function EnumControl({ id, name, schema, value, onChange }: FieldProps) {
  const selected = value === undefined ? '' : JSON.stringify(value);
  return (
    <select
      id={id}
      name={name}
      value={selected}
      onChange={(e) => onChange(e.target.value === '' ? undefined : (JSON.parse(e.target.value) as Json))}
    >
      <option value="">—</option>
      {(schema.enum ?? []).map((option) => (
        <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
          {String(option)}
        </option>
      ))}
    </select>
  );
}

function NumberControl({ id, name, schema, value, raw, onChange }: FieldProps) {
  const text = raw ?? (typeof value === 'number' ? String(value) : '');
  return (
    <input
      id={id}
      name={name}
      type="number"
      step={schema.type === 'integer' ? 1 : 'any'}
      value={text}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value), e.target.value)}
    />
  );
}

function JsonControl({ id, name, value, raw, onChange }: FieldProps) {
  const text = raw ?? (value === undefined ? '' : JSON.stringify(value));
  const change = (next: string) => {
    try {
      onChange(next.trim() === '' ? undefined : (JSON.parse(next) as Json), next);
    } catch {
      onChange(value, next);
    }
  };
  return (
    <textarea
      id={id}
      name={name}
      rows={2}
      value={text}
      placeholder="JSON"
      onChange={(e) => change(e.target.value)}
    />
  );
}

function FieldControl(props: FieldProps) {
  const { id, name, value, onChange } = props;
  switch (fieldKind(props.schema)) {
    case 'boolean':
      return (
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
    case 'enum':
      return <EnumControl {...props} />;
    case 'string':
      return (
        <input
          id={id}
          name={name}
          type="text"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
      );
    case 'number':
    case 'integer':
      return <NumberControl {...props} />;
    default:
      return <JsonControl {...props} />;
  }
}

/** One field of the form: label (with the schema's description), input, and the server's complaint. */
export function SchemaField(
  props: FieldProps & { readonly required: boolean; readonly error: string | undefined },
) {
  return (
    <div className={`field field-${fieldKind(props.schema)}${props.error ? ' field-error' : ''}`}>
      <label htmlFor={props.id}>
        {props.name}
        {props.required && <span className="required">*</span>}
        {props.schema.description && <span className="hint">{props.schema.description}</span>}
      </label>
      <FieldControl {...props} />
      {props.error && <div className="error-text">{props.error}</div>}
    </div>
  );
}
