import type { NavigationIcon } from '@avatar-studio/shared';
import {
  IconBuildingCommunity,
  IconBulb,
  IconRocket,
  IconFileText,
  IconHash,
  IconVideo,
  IconMessageChatbot,
  IconBuildingSkyscraper,
  IconMessages,
  IconRoute,
  IconSettings,
  IconTemplate,
  IconUserCircle,
  IconUsers,
  IconMail,
  IconUserShield,
  IconReceipt,
  IconPackage,
  IconDiscount,
  IconHistory,
  IconLayoutDashboard,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

type IconComponent = ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;

/** The icon a menu entry names in its remote's manifest. */
const ICONS: Record<NavigationIcon, IconComponent> = {
  messages: IconMessages,
  route: IconRoute,
  template: IconTemplate,
  'user-circle': IconUserCircle,
  settings: IconSettings,
  'user-shield': IconUserShield,
  'building-community': IconBuildingCommunity,
  'building-skyscraper': IconBuildingSkyscraper,
  users: IconUsers,
  mail: IconMail,
  receipt: IconReceipt,
  package: IconPackage,
  discount: IconDiscount,
  history: IconHistory,
  dashboard: IconLayoutDashboard,
  'file-text': IconFileText,
  bulb: IconBulb,
  rocket: IconRocket,
  hash: IconHash,
  video: IconVideo,
  'message-chatbot': IconMessageChatbot,
};

/** The entry's icon, or nothing for a name this shell does not know (a remote built against a newer list). */
export function NavIcon({ name, size }: { name?: NavigationIcon; size: number }) {
  const Icon = name ? ICONS[name] : undefined;
  return Icon ? <Icon size={size} stroke={1.5} aria-hidden /> : null;
}
