// The app file of an issue tracker's API: the account's token, and one method per call.
import { axios } from "@pipedream/platform";

export default {
  type: "app",
  app: "tracker",
  methods: {
    async listIssues($, { since }) {
      return axios($ ?? this, {
        url: "https://api.tracker.example/v1/issues",
        params: { since },
        headers: { Authorization: `Bearer ${this.$auth.api_token}` },
      });
    },
    async createIssue($, { title, body }) {
      return axios($ ?? this, {
        method: "POST",
        url: "https://api.tracker.example/v1/issues",
        headers: { Authorization: `Bearer ${this.$auth.api_token}` },
        data: { title, body },
      });
    },
  },
};
