import { Center, Image, ThemeIcon } from '@mantine/core';
import { IconBuildingCommunity } from '@tabler/icons-react';
import { useState } from 'react';

/** An organization's thumbnail, or a placeholder when it has none (or it fails to load). */
export function OrganizationThumbnail({
  src,
  alt,
  height = 140,
}: {
  src: string | null | undefined;
  alt: string;
  height?: number;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return <Image src={src} alt={alt} h={height} fit="cover" radius="sm" onError={() => setFailed(src)} />;
  }
  return (
    <Center
      h={height}
      bg="var(--mantine-color-default-hover)"
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <ThemeIcon variant="light" size={Math.min(64, height / 2)} radius="xl" aria-hidden>
        <IconBuildingCommunity size={Math.min(36, height / 3)} />
      </ThemeIcon>
    </Center>
  );
}
