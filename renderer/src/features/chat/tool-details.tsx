import { useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { SideBySideDiff } from '../../ui/side-by-side-diff';
import { describeTool } from './tool-describe';
import './tool-details.css';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

/** A block of text the row quotes; focusable, since it scrolls. */
const Quoted = ({ label, value }: { label: string; value: string }) => (
  <pre className="tool-text" tabIndex={0} aria-label={label}>
    {value}
  </pre>
);

/**
 * An expanded tool row read as what happened: a sentence, the text written or the change made (before and
 * after), what came back, a failure's reason; the call's raw JSON only behind "Show raw".
 */
export function ToolDetails({ item, project }: { item: ToolItem; project: string }) {
  const [raw, setRaw] = useState(false);
  const d = describeTool(item, project);
  return (
    <div className="tool-body">
      {d ? (
        <>
          <p className={`tool-line ${item.status}`}>{d.line}</p>
          {d.text && (d.text.value ? <Quoted {...d.text} /> : <p className="small muted">The file is empty.</p>)}
          {d.change && <SideBySideDiff before={d.change.before} after={d.change.after} beforeLabel="Before" afterLabel="After" />}
          {d.result && (
            <>
              <h4>{d.result.label}</h4>
              {d.result.value ? <Quoted {...d.result} /> : <p className="small muted">Nothing.</p>}
            </>
          )}
        </>
      ) : (
        item.result !== undefined && <Quoted label={`${item.name} result`} value={item.result} />
      )}
      <button type="button" className="link small tool-raw" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? 'Hide raw' : 'Show raw'}
      </button>
      {raw && (
        <>
          <h4>Input</h4>
          <pre tabIndex={0} aria-label={`${item.name} input`}>
            {JSON.stringify(item.input, null, 2)}
          </pre>
          {item.result !== undefined && (
            <>
              <h4>Result</h4>
              <pre tabIndex={0} aria-label={`${item.name} raw result`}>
                {item.result}
              </pre>
            </>
          )}
        </>
      )}
    </div>
  );
}
