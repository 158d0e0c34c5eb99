import { email, name, PASSWORD_MIN, phone, sixDigits } from "@sealwork/contracts";

/** Client-side checks with the same zod rules the server applies (packages/contracts). */
export { PASSWORD_MIN };

export const isValidEmail = (value: string): boolean => email.safeParse(value.trim()).success;
export const isValidPhone = (value: string): boolean => phone.safeParse(value.trim()).success;
export const isValidName = (value: string): boolean => name.safeParse(value).success;
export const isSixDigits = (value: string): boolean => sixDigits.safeParse(value).success;
export const isValidPassword = (value: string): boolean => value.length >= PASSWORD_MIN && value.length <= 1024;
