import { withoutOriginLine } from '../../../../common/memory-file/provenance';
import { SideBySideDiff } from '../../ui/side-by-side-diff';

/**
 * A proposed change to one memory as the memory itself, side by side like the vault's History: the file
 * now on the left, as it would be on the right; a new memory has nothing on the left, a deletion nothing
 * on the right. The conversation it came from is no raw id here (docs/memory.md#provenance-and-use).
 */
export function MemoryChangeDiff({ before, after }: { before: string | null; after: string | null }) {
  return (
    <SideBySideDiff
      before={withoutOriginLine(before ?? '')}
      after={withoutOriginLine(after ?? '')}
      beforeLabel={before === null ? 'Not in memory yet' : 'Now'}
      afterLabel={after === null ? 'Deleted' : 'After the change'}
    />
  );
}
