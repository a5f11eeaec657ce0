/** True when `work` settles within `ms`; false when the wait gave up (the work goes on). */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = work.then(
    () => true,
    () => true,
  );
  const gaveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([settled, gaveUp]);
  clearTimeout(timer);
  return result;
}
