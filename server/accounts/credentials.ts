import { hashPassword, verifyAndUpgrade } from "../domain/password-hash.ts";
import type { Account, AccountRepository } from "../store/account-repository.ts";

/**
 * A hash no password matches, checked for an address without an account: every sign-in
 * costs one scrypt, so the time of the answer does not tell which addresses have one.
 */
let standInHash: Promise<string> | undefined;
const standIn = () => {
  standInHash ??= hashPassword(`no account ${Math.random()}`);
  return standInHash;
};

/**
 * The account these credentials open, or undefined, with one answer for a wrong address and
 * a wrong password. A matching hash below today's cost is replaced on the way (ADR 0075).
 */
export async function checkCredentials(
  accounts: AccountRepository,
  email: string,
  password: string,
): Promise<Account | undefined> {
  const account = email ? await accounts.findByEmail(email) : undefined;
  if (!account) {
    await verifyAndUpgrade(password, await standIn(), async () => {});
    return undefined;
  }
  const matches = await verifyAndUpgrade(password, account.passwordHash, (next) =>
    accounts.replacePasswordHash(account.id, account.passwordHash, next),
  );
  return matches ? account : undefined;
}
