/** Spec §9: mainland mobile numbers (optional +86 or 0086) keep the first 3 and last 4 digits. */
export function maskPhone(phone: string): string {
  return phone.replace(/^((?:\+86|0086)?1\d{2})\d{4}(\d{4})$/, "$1****$2");
}
