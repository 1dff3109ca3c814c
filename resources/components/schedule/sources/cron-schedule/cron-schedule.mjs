// Fires on a cron schedule (09:00 every day unless configured).
export default {
  key: "schedule-cron-schedule",
  name: "Cron Schedule",
  description: 'Emit an event on a cron schedule. Configure the timer with {"cron": "*/5 * * * *"}.',
  version: "0.1.0",
  type: "source",
  dedupe: "unique",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Schedule",
      default: {
        cron: "0 9 * * *",
      },
    },
  },
  async run(event) {
    const timestamp = event?.timestamp ?? Math.floor(Date.now() / 1000);
    this.$emit(
      {
        timestamp,
        cron: event?.cron ?? null,
      },
      {
        id: timestamp,
        summary: `Schedule fired at ${new Date(timestamp * 1000).toISOString()}`,
        ts: timestamp * 1000,
      },
    );
  },
};
