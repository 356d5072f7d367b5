/**
 * A form built from a JSON schema: the try-it form of a tool, template or prompt, and the form of a
 * tool's question to the notebook user (`ctx.ask_notebook_user`). One input per property: text,
 * integer, number, checkbox, a choice (enums, `Literal`, `oneOf` of `const`s, optional booleans),
 * several choices (an array of enum items), or JSON (objects, arrays, unions).
 */
import { h, isObject } from './dom';
import { constraints, nonNull, properties, pyRepr, requiredNames, Schema, typeLabel } from './schema';

export type FieldKind = 'text' | 'integer' | 'number' | 'checkbox' | 'choice' | 'choices' | 'json';
type ParseAs = 'value' | 'str' | 'int' | 'float' | 'json';

/** A choice meaning "leave the argument out" (its default applies). */
const OMIT = Symbol('omit');

export interface IField {
  name: string;
  kind: FieldKind;
  parseAs: ParseAs;
  typeLabel: string;
  required: boolean;
  nullable: boolean;
  title: string;
  description: string;
  hint: string;
  /** The schema's default (`OMIT` when none): a field still holding it is not sent. */
  fallback: unknown;
  /** A single choice's options (`choice`), or the items one may pick several of (`choices`). */
  choices: Array<[string, unknown]>;
  initial: unknown;
}

/** One field per property of an object schema, in declaration order. */
export function fields(schema: Schema | null): IField[] {
  const required = requiredNames(schema);
  return properties(schema).map(([name, prop]) => field(name, prop, required.includes(name)));
}

export function field(name: string, schema: Schema, required: boolean): IField {
  const [inner, nullable] = nonNull(schema);
  const [kind, parseAs] = kindOf(inner, nullable);
  const fallback = 'default' in schema ? schema['default'] : OMIT;
  return {
    name,
    kind,
    parseAs,
    typeLabel: typeLabel(schema),
    required,
    nullable,
    title: typeof schema['title'] === 'string' && kind !== 'choice' ? schema['title'] : name,
    description: typeof schema['description'] === 'string' ? schema['description'] : '',
    hint: constraints(schema).join(', '),
    fallback,
    choices:
      kind === 'choice'
        ? choicesOf(inner, required, nullable, fallback !== OMIT)
        : kind === 'choices' && isObject(inner['items'])
          ? (enumChoices(nonNull(inner['items'])[0]) ?? [])
          : [],
    initial: initialOf(kind, schema)
  };
}

function enumChoices(schema: Schema): Array<[string, unknown]> | null {
  if (Array.isArray(schema['enum'])) {
    const names = Array.isArray(schema['enumNames']) ? schema['enumNames'] : [];
    return schema['enum'].map((value, i) => [typeof names[i] === 'string' ? String(names[i]) : pyRepr(value), value]);
  }
  if ('const' in schema) {
    return [[pyRepr(schema['const']), schema['const']]];
  }
  const union = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(union) && union.length > 0 && union.every(o => isObject(o) && 'const' in o)) {
    return union
      .filter(isObject)
      .map(o => [typeof o['title'] === 'string' ? o['title'] : pyRepr(o['const']), o['const']]);
  }
  return null;
}

function kindOf(schema: Schema, nullable: boolean): [FieldKind, ParseAs] {
  const kind = schema['type'];
  if (enumChoices(schema) !== null || (kind === 'boolean' && nullable)) {
    return ['choice', 'value'];
  }
  if (kind === 'array' && isObject(schema['items']) && enumChoices(schema['items']) !== null) {
    return ['choices', 'value'];
  }
  if (kind === 'boolean') {
    return ['checkbox', 'value'];
  }
  if (kind === 'integer' || kind === 'number') {
    // A number box cannot say None, and empty is how a form says None.
    const parseAs: ParseAs = kind === 'integer' ? 'int' : 'float';
    return nullable ? ['text', parseAs] : [kind, parseAs];
  }
  if (kind === 'string') {
    return ['text', 'str'];
  }
  return ['json', 'json'];
}

function choicesOf(
  schema: Schema,
  required: boolean,
  nullable: boolean,
  hasDefault: boolean
): Array<[string, unknown]> {
  const choices: Array<[string, unknown]> = enumChoices(schema) ?? [
    ['True', true],
    ['False', false]
  ];
  if (nullable) {
    choices.push(['None', null]);
  }
  if (!required && !hasDefault) {
    choices.unshift(['(not set)', OMIT]);
  } else if (required && !hasDefault) {
    choices.unshift(['(choose one)', OMIT]);
  }
  return choices;
}

function initialOf(kind: FieldKind, schema: Schema): unknown {
  const fallback = schema['default'];
  if (kind === 'choice') {
    return 'default' in schema ? fallback : OMIT;
  }
  if (kind === 'checkbox') {
    return fallback === true;
  }
  if (kind === 'json') {
    return fallback === undefined || fallback === null ? '' : JSON.stringify(fallback);
  }
  if (kind === 'choices') {
    return Array.isArray(fallback) ? fallback : [];
  }
  return typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : '';
}

export class FieldError extends Error {}

/** The argument for what a field holds (`raw`); `OMIT` to leave it out. Throws `FieldError` when unreadable. */
export function parseField(spec: IField, raw: unknown): unknown {
  if (spec.parseAs === 'value') {
    if (spec.kind === 'choices' && Array.isArray(raw) && raw.length === 0) {
      return emptyValue(spec);
    }
    if (raw === OMIT && spec.required) {
      throw new FieldError('required');
    }
    return raw;
  }
  const text = String(raw).trim();
  if (!text) {
    return emptyValue(spec);
  }
  if (spec.parseAs === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new FieldError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (spec.parseAs === 'int' || spec.parseAs === 'float') {
    const number = Number(text);
    if (!Number.isFinite(number) || (spec.parseAs === 'int' && !Number.isInteger(number))) {
      throw new FieldError(`not ${spec.parseAs === 'int' ? 'an integer' : 'a number'}: ${pyRepr(text)}`);
    }
    return number;
  }
  return String(raw);
}

function emptyValue(spec: IField): unknown {
  if (!spec.required) {
    return OMIT;
  }
  if (spec.nullable) {
    return null;
  }
  if (spec.parseAs === 'str') {
    return '';
  }
  throw new FieldError('required');
}

function sameAsDefault(spec: IField, value: unknown): boolean {
  // A default only matches a value of the same JSON type (true is not 1).
  return (
    spec.fallback !== OMIT &&
    typeof value === typeof spec.fallback &&
    JSON.stringify(value) === JSON.stringify(spec.fallback)
  );
}

/** Arguments from every field's raw value, and the fields that could not be read (with why). */
export function collect(
  specs: IField[],
  raw: { [name: string]: unknown }
): { values: { [name: string]: unknown }; errors: { [name: string]: string } } {
  const values: { [name: string]: unknown } = {};
  const errors: { [name: string]: string } = {};
  for (const spec of specs) {
    try {
      const value = parseField(spec, raw[spec.name]);
      if (value !== OMIT && !sameAsDefault(spec, value)) {
        values[spec.name] = value;
      }
    } catch (error) {
      errors[spec.name] = error instanceof Error ? error.message : String(error);
    }
  }
  return { values, errors };
}

interface IControl {
  node: HTMLElement;
  read: () => unknown;
}

/**
 * The form: a labelled input per field. `read()` gives the arguments, or fills `error` (an alert
 * line) and returns `null` when a field cannot be read; editing clears the complaint.
 */
export class SchemaForm {
  /** `options.values`: arguments to start from (a call to run again) instead of the schema's defaults. */
  constructor(schema: Schema | null, options: { empty?: string; values?: { [name: string]: unknown } } = {}) {
    const values = options.values ?? {};
    this.fields = fields(schema).map(spec =>
      spec.name in values ? { ...spec, initial: initialOf(spec.kind, { default: values[spec.name] }) } : spec
    );
    this.node = h('div', 'jmcp-form');
    for (const spec of this.fields) {
      const control = controlFor(spec);
      this._controls.set(spec.name, control);
      this.node.append(row(spec, control.node));
    }
    if (this.fields.length === 0 && options.empty) {
      this.node.append(h('div', 'jmcp-muted', options.empty));
    }
    this.error = h('div', 'jmcp-form-error jmcp-error');
    this.error.setAttribute('role', 'alert');
    this.node.addEventListener('input', () => this.error.replaceChildren());
    this.node.addEventListener('change', () => this.error.replaceChildren());
  }

  readonly node: HTMLDivElement;
  readonly error: HTMLDivElement;
  readonly fields: IField[];

  /** What every input holds now, before parsing. */
  raw(): { [name: string]: unknown } {
    return Object.fromEntries([...this._controls].map(([name, control]) => [name, control.read()]));
  }

  /** The arguments, or `null` after saying (in `error`) which fields cannot be read. */
  read(): { [name: string]: unknown } | null {
    const { values, errors } = collect(this.fields, this.raw());
    const problems = Object.entries(errors);
    if (problems.length === 0) {
      return values;
    }
    this.error.replaceChildren(
      problems.length === 1
        ? `${problems[0][0]} is ${problems[0][1]}`
        : `Cannot send: ${problems.map(([n, why]) => `${n}: ${why}`).join('; ')}`
    );
    return null;
  }

  /** Put `text` as the form's complaint (e.g. the kernel refused the values). */
  complain(text: string): void {
    this.error.replaceChildren(text);
  }

  private _controls = new Map<string, IControl>();
}

function row(spec: IField, control: HTMLElement): HTMLElement {
  const label = h('label', 'jmcp-field');
  const name = h('span', 'jmcp-field-name', h('code', '', spec.title));
  if (spec.required) {
    name.append(h('span', 'jmcp-required', ' *'));
  }
  name.append(' ', h('span', 'jmcp-muted jmcp-field-type', spec.typeLabel));
  label.append(name, control);
  const hint = [spec.hint, spec.description].filter(Boolean).join(' · ');
  if (hint) {
    label.append(h('span', 'jmcp-muted jmcp-field-hint', hint));
  }
  control.setAttribute('aria-label', spec.title);
  control.dataset.field = spec.name;
  return label;
}

function controlFor(spec: IField): IControl {
  if (spec.kind === 'checkbox') {
    const box = h('input', 'jmcp-checkbox');
    box.type = 'checkbox';
    box.checked = spec.initial === true;
    return { node: box, read: () => box.checked };
  }
  if (spec.kind === 'choice') {
    return choiceControl(spec);
  }
  if (spec.kind === 'choices') {
    return manyControl(spec);
  }
  if (spec.kind === 'json') {
    const area = h('textarea', 'jmcp-input jmcp-mono');
    area.rows = 2;
    area.placeholder = `JSON: ${spec.typeLabel}`;
    area.value = typeof spec.initial === 'string' ? spec.initial : '';
    return { node: area, read: () => area.value };
  }
  const input = h('input', 'jmcp-input');
  input.type = spec.kind === 'integer' || spec.kind === 'number' ? 'number' : 'text';
  input.step = spec.kind === 'integer' ? '1' : 'any';
  input.value = typeof spec.initial === 'string' ? spec.initial : '';
  input.placeholder = !spec.required ? 'empty: its default' : spec.nullable ? 'empty: None' : '';
  return { node: input, read: () => input.value };
}

/** An option's value attribute: the choice as text (what a person or a test would pick it by). */
function optionValue(value: unknown): string {
  return value === OMIT ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

function choiceControl(spec: IField): IControl {
  const select = h('select', 'jmcp-input');
  spec.choices.forEach(([label, value]) => select.append(new Option(label, optionValue(value))));
  select.selectedIndex = Math.max(
    0,
    spec.choices.findIndex(([, value]) => value === spec.initial)
  );
  return { node: select, read: () => spec.choices[select.selectedIndex]?.[1] ?? OMIT };
}

function manyControl(spec: IField): IControl {
  const select = h('select', 'jmcp-input');
  select.multiple = true;
  for (const [label, value] of spec.choices) {
    const option = new Option(label, optionValue(value));
    option.selected = Array.isArray(spec.initial) && spec.initial.some(item => item === value);
    select.append(option);
  }
  select.size = Math.min(4, Math.max(2, spec.choices.length));
  return {
    node: select,
    read: () => Array.from(select.selectedOptions, option => spec.choices[option.index][1])
  };
}
