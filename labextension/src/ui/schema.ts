/**
 * JSON schemas read back as Python, the language the tools are written in: `list[int]`,
 * `Literal['a', 'b']`, `≥ 0`, and a parameter table's rows.
 */
import { isObject } from './dom';

export type Schema = { [key: string]: unknown };

const PRIMITIVES: { [type: string]: string } = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  null: 'None'
};
const FORMATS: { [format: string]: string } = {
  'date-time': 'datetime',
  date: 'date',
  time: 'time',
  duration: 'timedelta',
  uuid: 'UUID',
  binary: 'bytes',
  path: 'Path'
};
const BOUNDS: ReadonlyArray<[string, string]> = [
  ['minimum', '≥ '],
  ['exclusiveMinimum', '> '],
  ['maximum', '≤ '],
  ['exclusiveMaximum', '< '],
  ['minLength', 'length ≥ '],
  ['maxLength', 'length ≤ '],
  ['minItems', 'items ≥ '],
  ['maxItems', 'items ≤ '],
  ['multipleOf', 'multiple of ']
];
export const WRAP_RESULT_KEY = 'x-jupyter-mcp-wrap-result';

/** `repr()` of a JSON value as Python writes it: `'a'`, `1`, `True`, `None`. */
export function pyRepr(value: unknown): string {
  if (typeof value === 'string') {
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  }
  if (value === true || value === false) {
    return value ? 'True' : 'False';
  }
  if (value === null || value === undefined) {
    return 'None';
  }
  if (Array.isArray(value)) {
    return `[${value.map(pyRepr).join(', ')}]`;
  }
  if (isObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  }
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function options(schema: Schema): Schema[] | null {
  const union = schema['anyOf'] ?? schema['oneOf'];
  return Array.isArray(union) ? union.filter(isObject) : null;
}

/** A readable Python-style type for `schema`. */
export function typeLabel(schema: Schema): string {
  if (Array.isArray(schema['enum'])) {
    return typeof schema['title'] === 'string' ? schema['title'] : literal(schema['enum']);
  }
  if ('const' in schema) {
    return literal([schema['const']]);
  }
  const union = options(schema);
  if (union) {
    return unionLabel(union.map(typeLabel));
  }
  const kind = schema['type'];
  if (Array.isArray(kind)) {
    return unionLabel(kind.map(k => typeLabel({ ...schema, type: k })));
  }
  if (typeof schema['$ref'] === 'string') {
    return schema['$ref'].split('/').pop() ?? 'Any';
  }
  return typedLabel(kind, schema);
}

function typedLabel(kind: unknown, schema: Schema): string {
  if (kind === 'array') {
    const prefix = schema['prefixItems'];
    if (Array.isArray(prefix)) {
      return `tuple[${prefix.filter(isObject).map(typeLabel).join(', ')}]`;
    }
    const container = schema['uniqueItems'] ? 'set' : 'list';
    return isObject(schema['items']) ? `${container}[${typeLabel(schema['items'])}]` : container;
  }
  if (kind === 'object') {
    if (typeof schema['title'] === 'string') {
      return schema['title'];
    }
    const extra = schema['additionalProperties'];
    return isObject(extra) && !schema['properties'] ? `dict[str, ${typeLabel(extra)}]` : 'dict';
  }
  if (kind === 'string' && typeof schema['format'] === 'string' && schema['format'] in FORMATS) {
    return FORMATS[schema['format']];
  }
  return PRIMITIVES[String(kind)] ?? 'Any';
}

function literal(values: unknown[]): string {
  return `Literal[${values.map(pyRepr).join(', ')}]`;
}

function unionLabel(labels: string[]): string {
  // `None` last, as people write `str | None`.
  const ordered = [...labels.filter(l => l !== 'None'), ...labels.filter(l => l === 'None')];
  return [...new Set(ordered)].join(' | ');
}

/** The schema without its `null` option, and whether `null` was allowed. */
export function nonNull(schema: Schema): [Schema, boolean] {
  const union = options(schema);
  if (union) {
    const rest = union.filter(s => s['type'] !== 'null');
    if (rest.length < union.length && rest.length === 1) {
      const bare = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'anyOf' && k !== 'oneOf'));
      return [{ ...bare, ...rest[0] }, true];
    }
    return [schema, rest.length < union.length];
  }
  const kind = schema['type'];
  if (Array.isArray(kind) && kind.includes('null')) {
    const others = kind.filter(k => k !== 'null');
    return [{ ...schema, type: others.length === 1 ? others[0] : others }, true];
  }
  return [schema, false];
}

/** Validation rules in short form: `≥ 0`, `length ≤ 10`, `pattern ^a+$`, `one of …`. */
export function constraints(schema: Schema): string[] {
  const inner = nonNull(schema)[0];
  // A tuple's length is already in its type.
  const skipped = 'prefixItems' in inner ? ['minItems', 'maxItems'] : [];
  const rules = BOUNDS.filter(([key]) => key in inner && !skipped.includes(key)).map(
    ([key, prefix]) => `${prefix}${String(inner[key])}`
  );
  if (typeof inner['pattern'] === 'string') {
    rules.push(`pattern ${inner['pattern']}`);
  }
  if (typeof inner['format'] === 'string' && !(inner['format'] in FORMATS)) {
    rules.push(`format ${inner['format']}`);
  }
  if (Array.isArray(inner['enum']) && typeof inner['title'] === 'string') {
    rules.push(`one of ${inner['enum'].map(pyRepr).join(', ')}`);
  }
  return rules;
}

export interface IParameter {
  name: string;
  type: string;
  required: boolean;
  /** The default as Python writes it; `''` when there is none. */
  default: string;
  constraints: string[];
  description: string;
}

export function properties(schema: Schema | null): Array<[string, Schema]> {
  const props = schema && isObject(schema['properties']) ? schema['properties'] : {};
  return Object.entries(props).map(([name, prop]) => [name, isObject(prop) ? prop : {}]);
}

export function requiredNames(schema: Schema | null): string[] {
  const required = schema ? schema['required'] : undefined;
  return Array.isArray(required) ? required.map(String) : [];
}

/** The parameters of an input schema in declaration order, ready for a table. */
export function parameters(schema: Schema | null): IParameter[] {
  const required = requiredNames(schema);
  return properties(schema).map(([name, prop]) => ({
    name,
    type: typeLabel(prop),
    required: required.includes(name),
    default: 'default' in prop ? pyRepr(prop['default']) : '',
    constraints: constraints(prop),
    description: typeof prop['description'] === 'string' ? prop['description'] : ''
  }));
}

/** What a tool returns, in one short line (`''` when it declares no output schema). */
export function outputSummary(schema: Schema | null): string {
  if (!schema) {
    return '';
  }
  const props = Object.fromEntries(properties(schema));
  if (schema[WRAP_RESULT_KEY] && 'result' in props) {
    return typeLabel(props['result']);
  }
  if ('title' in schema || Object.keys(props).length === 0) {
    return typeLabel(schema);
  }
  return `{${Object.entries(props)
    .map(([name, prop]) => `${name}: ${typeLabel(prop)}`)
    .join(', ')}}`;
}
