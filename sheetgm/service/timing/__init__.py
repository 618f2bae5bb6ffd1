"""When things happen: each stage's deadline, reminders and early resolution (``deadlines``) and the cron
lines of the scheduled workflow (``schedule``)."""
