/** Small structural checks for data read before the schema library is loaded. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new TypeError(`${what}: expected an object`);
  return value;
}

export function requireString(object: JsonObject, key: string, what: string): string {
  const value = object[key];
  if (typeof value !== 'string') throw new TypeError(`${what}: "${key}" must be a string`);
  return value;
}

export function requireNumber(object: JsonObject, key: string, what: string): number {
  const value = object[key];
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError(`${what}: "${key}" must be a number`);
  return value;
}

export function requireStringArray(object: JsonObject, key: string, what: string): string[] {
  const value = object[key];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new TypeError(`${what}: "${key}" must be a list of strings`);
  return value;
}

export function optionalString(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}
