import { useEffect, useState } from 'react';
import type { Json, JsonSchema } from '../../../src/shared/wire.ts';
import { initialValues, isFormSchema, SchemaField } from './schema-fields.tsx';

/** A field problem the server reported (`path` is dotted: `input.target`). */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/** The values of a schema form, the text of fields being typed, and the raw-JSON mode. */
function useFormState(schema: JsonSchema) {
  const [values, setValues] = useState<Record<string, Json>>(() => initialValues(schema));
  const [raw, setRaw] = useState<Record<string, string>>({});
  const [jsonMode, setJsonMode] = useState(!isFormSchema(schema));
  const [jsonText, setJsonText] = useState(() => JSON.stringify(initialValues(schema), null, 2));
  const [jsonError, setJsonError] = useState<string | undefined>();
  const schemaKey = JSON.stringify(schema);
  useEffect(() => {
    const start = initialValues(JSON.parse(schemaKey) as JsonSchema);
    setValues(start);
    setRaw({});
    setJsonText(JSON.stringify(start, null, 2));
  }, [schemaKey]);
  const setField = (name: string, value: Json | undefined, text: string | undefined) => {
    setValues(({ [name]: _old, ...rest }) => (value === undefined ? rest : { ...rest, [name]: value }));
    setRaw(({ [name]: _old, ...rest }) => (text === undefined ? rest : { ...rest, [name]: text }));
  };
  const parseJson = (): Json | undefined => {
    try {
      setJsonError(undefined);
      return JSON.parse(jsonText) as Json;
    } catch (error) {
      setJsonError(`not valid JSON: ${(error as Error).message}`);
      return undefined;
    }
  };
  const toggle = () => {
    if (!jsonMode) {
      setJsonText(JSON.stringify(values, null, 2));
      setJsonMode(true);
      return;
    }
    const parsed = parseJson();
    if (parsed === undefined) return;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) setValues(parsed);
    setJsonMode(false);
  };
  return { values, raw, jsonMode, jsonText, setJsonText, jsonError, setField, parseJson, toggle };
}

type FormState = ReturnType<typeof useFormState>;

function Fields(props: {
  schema: JsonSchema;
  form: FormState;
  idPrefix: string;
  problemOf: (name: string) => string | undefined;
}) {
  const { form } = props;
  if (form.jsonMode) {
    return (
      <textarea
        className="json-input"
        name="json"
        rows={6}
        value={form.jsonText}
        onChange={(e) => form.setJsonText(e.target.value)}
      />
    );
  }
  return Object.entries(props.schema.properties ?? {}).map(([name, schema]) => (
    <SchemaField
      key={name}
      id={`${props.idPrefix}-${name}`}
      name={name}
      schema={schema}
      required={props.schema.required?.includes(name) ?? false}
      value={form.values[name]}
      raw={form.raw[name]}
      error={props.problemOf(name)}
      onChange={(value, text) => form.setField(name, value, text)}
    />
  ));
}

/**
 * A form generated from a JSON Schema (an object's properties as inputs), with a raw-JSON mode for
 * anything the form cannot draw. Server-reported problems are shown next to their fields.
 */
export function SchemaForm(props: {
  readonly schema: JsonSchema;
  readonly submitLabel: string;
  readonly onSubmit: (value: Json) => void;
  /** Prefix of server problem paths that belong to this form (`input`). */
  readonly problemPrefix?: string;
  readonly problems?: readonly FieldProblem[];
  readonly disabled?: boolean;
  readonly testId?: string;
}) {
  const form = useFormState(props.schema);
  const prefix = props.problemPrefix ? `${props.problemPrefix}.` : '';
  const owns = (name: string, path: string) =>
    path === `${prefix}${name}` || path.startsWith(`${prefix}${name}.`);
  const names = Object.keys(props.schema.properties ?? {});
  const general = (props.problems ?? []).filter(
    (p) => form.jsonMode || !names.some((name) => owns(name, p.path)),
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = form.jsonMode ? form.parseJson() : form.values;
    if (value !== undefined) props.onSubmit(value);
  };
  return (
    <form className="schema-form" onSubmit={submit} data-testid={props.testId}>
      <Fields
        schema={props.schema}
        form={form}
        idPrefix={props.testId ?? 'form'}
        problemOf={(name) => props.problems?.find((p) => owns(name, p.path))?.message}
      />
      {form.jsonError && <div className="error-text">{form.jsonError}</div>}
      {general.map((p) => (
        <div key={p.path} className="error-text">{`${p.path || 'input'}: ${p.message}`}</div>
      ))}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.disabled}>
          {props.submitLabel}
        </button>
        {isFormSchema(props.schema) && (
          <button type="button" className="link" onClick={form.toggle}>
            {form.jsonMode ? 'Form' : 'Raw JSON'}
          </button>
        )}
      </div>
    </form>
  );
}
