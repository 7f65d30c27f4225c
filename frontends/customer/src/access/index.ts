export { OutOfCreditsNotice } from './OutOfCreditsNotice';
export type { OutOfCreditsNoticeProps } from './OutOfCreditsNotice';
