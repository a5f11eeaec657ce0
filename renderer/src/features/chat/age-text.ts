/** How long ago a memory was saved, as the chat says it. */
export const ageText = (days: number): string => (days === 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`);
