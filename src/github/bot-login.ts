// The login of the app's bot (`<slug>[bot]`), which opens the tracking issues:
// listing issues by it keeps the lookup to one page in a busy repository, and
// nobody else's issue is taken for ours. Asked once per Probot instance.
import type { Probot } from "probot";
import { readApp } from "./read-app.ts";

const logins = new WeakMap<Probot, Promise<string>>();

export function botLogin(probot: Probot): Promise<string> {
  let login = logins.get(probot);
  if (!login) {
    login = readApp(probot).then(({ data }) => `${data?.slug ?? "undrift"}[bot]`);
    // A failure is not kept: the next scan asks again.
    login.catch(() => logins.delete(probot));
    logins.set(probot, login);
  }
  return login;
}
