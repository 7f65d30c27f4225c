export { OutOfCreditsNotice } from './OutOfCreditsNotice';
export { HomePage } from './HomePage';
export type { OutOfCreditsNoticeProps } from './OutOfCreditsNotice';
