/** Bad command-line usage: reported with a hint and exit status 2. */
export class UsageError extends Error {}
