// Value rules for the metafield types a metaobject field can have. Types without a rule here
// (references, ...) are stored as given: the app does not use them, and guessing their rules would
// make the emulator stricter or looser than the platform in unknown ways. Every type's size
// limits (limits.ts) apply on top of these rules.
import { sizeProblem } from "./limits";

const SINGLE_LINE_MAX = 255;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Rule = (value: string) => string | undefined;

const rules: Record<string, Rule> = {
  single_line_text_field: (value) => {
    if (/[\r\n]/.test(value)) return "Value must be a single line of text.";
    if (value.length > SINGLE_LINE_MAX) return `Value is too long (maximum is ${SINGLE_LINE_MAX} characters).`;
    return undefined;
  },
  json: (value) => {
    try {
      JSON.parse(value);
      return undefined;
    } catch (error) {
      return `Value is invalid JSON: ${(error as Error).message}.`;
    }
  },
  date_time: (value) =>
    ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
      ? undefined
      : "Value must be in ISO 8601 date and time format (YYYY-MM-DDTHH:MM:SS).",
  date: (value) =>
    ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : "Value must be in YYYY-MM-DD format.",
  number_integer: (value) =>
    /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? undefined : "Value must be an integer.",
  number_decimal: (value) => (/^-?\d+(\.\d+)?$/.test(value) ? undefined : "Value must be a decimal number."),
  boolean: (value) => (value === "true" || value === "false" ? undefined : "Value must be true or false."),
};

/** The reason `value` is not acceptable for a field of `type`, or undefined when it is. */
export function checkFieldValue(type: string, value: string): string | undefined {
  if (type.startsWith("list.")) return isJsonArray(value) ? sizeProblem(type, value) : "Value must be a JSON array.";
  return rules[type]?.(value) ?? sizeProblem(type, value);
}

function isJsonArray(value: string): boolean {
  try {
    return Array.isArray(JSON.parse(value));
  } catch {
    return false;
  }
}

/** What `MetaobjectField.jsonValue` returns for a stored value. */
export function toJsonValue(type: string, value: string): unknown {
  if (type === "json" || type.startsWith("list.")) return JSON.parse(value);
  if (type === "number_integer") return Number(value);
  if (type === "boolean") return value === "true";
  return value;
}
