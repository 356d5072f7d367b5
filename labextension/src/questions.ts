import { IQuestionEntry } from './types';

/**
 * "export_table asks you (for desk-agent): Which table?" — the one line every view shows.
 */
export function questionText(question: IQuestionEntry): string {
  const client = question.client ? ` (for ${question.client})` : '';
  return `${question.tool} asks you${client}: ${question.message}`;
}

type Values = { [key: string]: unknown };

interface IField {
  name: string;
  required: boolean;
  read: () => unknown;
}

/**
 * A form built from a question's JSON schema (an object of flat fields, as MCP elicitation allows):
 * text, numbers, true/false and choices. `values()` reads it, or throws an Error saying what is missing;
 * `error` shows such a message until the user edits the form.
 */
export class QuestionForm {
  constructor(schema: { [key: string]: unknown }) {
    this.node = document.createElement('div');
    this.node.className = 'jp-MCP-question-form';
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    const required = Array.isArray(schema['required']) ? schema['required'] : [];
    for (const [name, spec] of Object.entries(properties)) {
      this._add(name, isObject(spec) ? spec : {}, required.includes(name));
    }
    this.error = document.createElement('div');
    this.error.className = 'jp-MCP-error jp-MCP-question-error';
    this.error.setAttribute('role', 'alert');
    this.node.addEventListener('input', () => (this.error.textContent = ''));
  }

  readonly node: HTMLDivElement;
  readonly error: HTMLDivElement;

  values(): Values {
    const values: Values = {};
    for (const field of this._fields) {
      const value = field.read();
      if (value === undefined && field.required) {
        throw new Error(`${field.name} is required`);
      }
      if (value !== undefined) {
        values[field.name] = value;
      }
    }
    return values;
  }

  private _add(name: string, spec: Values, required: boolean): void {
    const label = document.createElement('label');
    label.className = 'jp-MCP-question-field';
    const title = typeof spec['title'] === 'string' ? spec['title'] : name;
    label.append(document.createTextNode(required ? `${title} *` : title));
    if (typeof spec['description'] === 'string') {
      label.title = spec['description'];
    }
    const [control, read] = fieldControl(spec);
    control.setAttribute('aria-label', title);
    control.dataset.field = name;
    label.append(control);
    this.node.append(label);
    this._fields.push({ name, required, read });
  }

  private _fields: IField[] = [];
}

function fieldControl(spec: Values): [HTMLInputElement | HTMLSelectElement, () => unknown] {
  const items = isObject(spec['items']) ? spec['items'] : {};
  const many = spec['type'] === 'array' ? choicesOf(items) : null;
  const one = choicesOf(spec);
  if (many !== null || one !== null) {
    return choiceControl(many ?? one ?? [], many !== null);
  }
  const input = document.createElement('input');
  if (spec['type'] === 'boolean') {
    input.type = 'checkbox';
    input.checked = spec['default'] === true;
    return [input, () => input.checked];
  }
  const numeric = spec['type'] === 'number' || spec['type'] === 'integer';
  input.type = numeric ? 'number' : 'text';
  input.step = spec['type'] === 'integer' ? '1' : 'any';
  const given = spec['default'];
  if (typeof given === 'string' || typeof given === 'number') {
    input.value = String(given);
  }
  const read = (): unknown => {
    if (input.value === '') {
      return undefined;
    }
    return numeric ? Number(input.value) : input.value;
  };
  return [input, read];
}

/** A select of `choices` (`many`: several may be picked, the answer is a list). */
function choiceControl(choices: Array<[string, string]>, many: boolean): [HTMLSelectElement, () => unknown] {
  const select = document.createElement('select');
  select.multiple = many;
  if (!many) {
    select.append(new Option('', ''));
  }
  select.append(...choices.map(([value, label]) => new Option(label, value)));
  const read = (): unknown => {
    if (many) {
      const picked = Array.from(select.selectedOptions, option => option.value);
      return picked.length > 0 ? picked : undefined;
    }
    return select.value === '' ? undefined : select.value;
  };
  return [select, read];
}

/** `[value, label]` of a field's choices: `enum` (with `enumNames`) or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(spec: Values): Array<[string, string]> | null {
  if (Array.isArray(spec['enum'])) {
    const names = Array.isArray(spec['enumNames']) ? spec['enumNames'] : [];
    return spec['enum'].map((value, index) => [String(value), String(names[index] ?? value)]);
  }
  const options = Array.isArray(spec['oneOf']) ? spec['oneOf'] : Array.isArray(spec['anyOf']) ? spec['anyOf'] : null;
  if (options === null || !options.every(option => isObject(option) && 'const' in option)) {
    return null;
  }
  return options.map((option: Values) => {
    const title = typeof option['title'] === 'string' ? option['title'] : String(option['const']);
    return [String(option['const']), title];
  });
}

function isObject(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
