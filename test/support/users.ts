import { User } from "@sealwork/core";
import type { Session } from "@sealwork/contracts";
import { login, uniqueEmail } from "./api";

export const PASSWORD = "correct-horse-9";

/** Creates an account through the domain layer (invitations arrive with the account-keys work). */
export async function createUser(options: { admin?: boolean; superAdmin?: boolean; password?: string | null; name?: string; phone?: string } = {}) {
  const email = uniqueEmail(options.superAdmin ? "super" : options.admin ? "admin" : "user");
  const password = options.password === null ? undefined : (options.password ?? PASSWORD);
  const user = await User.create({ name: options.name ?? "Test Person", email, phone: options.phone, password, admin: options.admin, superAdmin: options.superAdmin });
  return { ...user, email, password };
}

export async function createSession(options: Parameters<typeof createUser>[0] = {}): Promise<Session & { password: string }> {
  const user = await createUser(options);
  return { ...(await login(user.id, user.password!)), password: user.password! };
}
