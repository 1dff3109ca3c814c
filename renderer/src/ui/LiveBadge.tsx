/** Whether a live stream (events, logs, runs) is connected. */
export function LiveBadge({ live, testId }: { live: boolean; testId: string }) {
  return (
    <span className={live ? 'badge active' : 'badge'} data-testid={testId}>
      {live ? 'live' : 'connecting…'}
    </span>
  );
}
