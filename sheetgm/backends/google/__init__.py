"""The Google adapter: Sheets and Drive through gspread's HTTP client, our retry and pacing."""
