// Kept free of zod: the web app's route guards need these without the schema library.
export const Roles = ['Viewer', 'Editor', 'Admin', 'SuperAdmin'] as const;
export type Role = (typeof Roles)[number];

/** True when `role` includes `min` (each role includes the lower ones). */
export function hasRole(role: Role, min: Role): boolean {
  return Roles.indexOf(role) >= Roles.indexOf(min);
}
