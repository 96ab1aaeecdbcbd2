/**
 * Whether the export's answer is the CSV, before the browser saves it as saved-items.csv. An
 * expired session answers with the login page (HTML), a failed export with a text message: saved
 * blindly, either became a "CSV" of something else. Null when it is the file; else what to tell.
 */
export function csvDownloadProblem(answer: {
  status: number;
  contentType: string | null;
  text?: string;
}): string | null {
  if (answer.status === 401 || answer.status === 403) {
    return "Your session has expired. Reload the page, then download the CSV again.";
  }
  if (answer.status !== 200) {
    return `The CSV could not be downloaded (HTTP ${answer.status})${answer.text ? `: ${answer.text}` : ""}. Prepare it again.`;
  }
  if (!answer.contentType?.startsWith("text/csv")) {
    return "The download was not the CSV (your session may have expired). Reload the page, then download it again.";
  }
  return null;
}
