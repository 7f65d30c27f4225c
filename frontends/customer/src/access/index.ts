export { OutOfCreditsNotice } from './OutOfCreditsNotice';
export { HomePage } from './HomePage';
export { UpgradePrompt } from './UpgradePrompt';
export type { OutOfCreditsNoticeProps } from './OutOfCreditsNotice';
