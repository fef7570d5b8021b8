ALTER TABLE `usage_days` ADD `too_large` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_hours` ADD `too_large` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_minutes` ADD `too_large` integer DEFAULT 0 NOT NULL;