// Loaded on demand (reset-password page): the password policy is parsed with the contract's schema.
export { PasswordPolicySchema } from '@assistente/contracts';
